// What a session reads and writes of a profile's secrets (ProfileStore keeps them in VS Code's SecretStorage).
import type { ProfileSecrets } from '../../api/profile';

export interface StoredToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  refreshToken?: string;
}

export interface SecretVault {
  getSecrets(id: string): Promise<ProfileSecrets>;
  setSecrets(id: string, secrets: ProfileSecrets): Promise<void>;
  getToken(id: string): Promise<StoredToken | undefined>;
  setToken(id: string, token: StoredToken | undefined): Promise<void>;
}
