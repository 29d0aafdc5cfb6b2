// .httpyac.js - httpyac configuration
// Disable automatic cookie jar to prevent auth confusion in demos.
// Use refreshCookie() helper for explicit session management.
module.exports = {
  log: {
    level: "info",
  },
  cookieJarEnabled: false,
};
