/** The workspace: root, request files, and `dial send FILE#name` targets. */
export { findWorkspaceRoot, discoverHttpFiles, isRequestFile } from './discover.js';
export { compileGitignore } from './gitignore.js';
export { listRequests, type ListedRequest, type RequestListing } from './list.js';
export {
  parseSendTarget,
  prepareFileRequest,
  selectRequest,
  requestLabel,
  type SendTarget,
  type PrepareFileRequestOptions,
  type PreparedFileRequest,
} from './send-target.js';
