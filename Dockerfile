# dial in a container: `docker build -t dial .` from a clone, then
#   docker run --rm -v "$PWD:/work" -w /work dial run api/ -e ci
# Stage 1 builds the npm package from the source; stage 2 installs only that tarball (no
# dependencies: everything is bundled), so the image holds Node, dial and nothing else.
FROM node:20-alpine AS package
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN node scripts/build.mjs && npm pack --ignore-scripts --pack-destination /tmp && mv /tmp/dial-http-*.tgz /tmp/dial-http.tgz

FROM node:20-alpine
COPY --from=package /tmp/dial-http.tgz /tmp/dial-http.tgz
RUN npm install --global --offline /tmp/dial-http.tgz && rm /tmp/dial-http.tgz && dial --version
WORKDIR /work
ENTRYPOINT ["dial"]
CMD ["--help"]
