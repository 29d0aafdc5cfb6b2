declare const __DIAL_VERSION__: string | undefined;

/** dial's version, injected by the build from package.json ('0.0.0-dev' when run from source). */
export const VERSION: string = typeof __DIAL_VERSION__ === 'string' ? __DIAL_VERSION__ : '0.0.0-dev';
