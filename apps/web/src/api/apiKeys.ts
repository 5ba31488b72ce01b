import { http } from './http.ts';
import { toApiKey, type ApiKey, type WireApiKey } from './types.ts';

export async function getApiKeys(): Promise<ApiKey[]> {
  const { data } = await http.get<{ data: { attributes: WireApiKey }[] }>('/api/client/account/api-keys');
  return data.data.map((item) => toApiKey(item.attributes));
}

/** Creates a key; answers it plus the secret, which the server shows only this once. */
export async function createApiKey(
  description: string,
  allowedIps: string[],
): Promise<ApiKey & { secretToken: string }> {
  const { data } = await http.post<{ attributes: WireApiKey; meta: { secret_token: string } }>(
    '/api/client/account/api-keys',
    { description, allowed_ips: allowedIps },
  );
  return { ...toApiKey(data.attributes), secretToken: data.meta.secret_token };
}

export async function deleteApiKey(identifier: string): Promise<void> {
  await http.delete(`/api/client/account/api-keys/${encodeURIComponent(identifier)}`);
}
