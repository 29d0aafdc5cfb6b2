/** The shape of dial's settings (config.json), shared by the reader and the zod schema. */

export interface Settings {
  /** Request timeout: a duration (`30s`, `500ms`) or a number of seconds. */
  timeout: string | number;
  /** Unset = each face's own default: `dial send URL` does not follow, `.http` requests do. */
  followRedirects?: boolean;
  maxRedirects: number;
  verifyTls: boolean;
  /** History entries kept; 0 turns history off. */
  historyLimit: number;
  editor?: string;
  pager?: string;
  theme?: string;
  /** Action -> keys overrides for the TUI, and `preset: "vim"` (src/core/settings/keymap.ts). */
  keymap: Record<string, string | string[]>;
  proxy?: string;
  /** Largest decoded response body `dial run` keeps (bytes, or text such as `1GiB`). */
  maxBodySize: string | number;
  /** Workspace root -> environment name last chosen there. */
  defaultEnvironment: Record<string, string>;
  /** Workspace root -> id of the request last opened there. */
  lastRequest: Record<string, string>;
}

export type SettingKey = keyof Settings;
