/**
 * Tests never read the real user's VS Code settings: every test process (and so every
 * `bin/dial.js` it spawns, which inherits its environment) looks for them at a path in an empty
 * temp folder. A test of those settings sets DIAL_VSCODE_USER_SETTINGS, HOME or XDG_CONFIG_HOME
 * for its own run.
 */
import { join } from 'node:path';
import { tempDir } from './cli.js';

process.env.DIAL_VSCODE_USER_SETTINGS = join(tempDir('dial-no-vscode-user-'), 'settings.json');
