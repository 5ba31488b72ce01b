import { http } from './http.ts';

/** A server file's text (spec 001 §7: GET .../files/contents, answered as plain text). */
export async function getFileContents(serverId: string, file: string): Promise<string> {
  const { data } = await http.get<string>(`/api/client/servers/${serverId}/files/contents`, {
    params: { file },
    asText: true,
  });
  return data;
}

/** Creates or replaces a server file (POST .../files/write with the raw content). */
export async function saveFileContents(serverId: string, file: string, content: string): Promise<void> {
  await http.post(`/api/client/servers/${serverId}/files/write`, undefined, {
    params: { file },
    rawBody: content,
  });
}
