/** Build id injected by Vite (see vite.config.ts); versions the translation cache. */
declare const __TALON_BUILD__: string;

/** What the panel injects into the page head (reference §6.2). */
interface WireSiteConfiguration {
  name: string;
  locale: string;
  recaptcha: { enabled: boolean; siteKey: string };
  analytics?: string;
  /** Talon's addition: whether servers may add allocations themselves (absent from older panels). */
  clientAllocations?: { enabled: boolean };
  /** Talon's addition: the admin allows Gravatar pictures (absent or false: initials only). */
  remoteAvatars?: boolean;
}

interface WireBootstrapUser {
  uuid: string;
  username: string;
  email: string;
  name_first?: string;
  name_last?: string;
  language: string;
  root_admin: boolean;
  use_totp: boolean;
  gravatar?: boolean;
  created_at: string;
  updated_at: string;
}

interface Window {
  SiteConfiguration?: WireSiteConfiguration;
  PterodactylUser?: WireBootstrapUser;
}
