import { http } from './http.ts';
import type { Paginated, ServerSummary } from './types.ts';

interface WireServer {
  identifier: string;
  uuid: string;
  name: string;
  description: string | null;
  node: string;
}

interface WireList {
  data: { attributes: WireServer }[];
  meta?: { pagination?: { current_page: number; total_pages: number; total: number } };
}

export async function getServers(page = 1): Promise<Paginated<ServerSummary>> {
  const { data } = await http.get<WireList>('/api/client', { params: { page } });
  const p = data.meta?.pagination;
  return {
    items: data.data.map(({ attributes: a }) => ({
      id: a.identifier,
      uuid: a.uuid,
      name: a.name,
      description: a.description ?? '',
      node: a.node,
    })),
    pagination: { currentPage: p?.current_page ?? 1, totalPages: p?.total_pages ?? 1, total: p?.total ?? 0 },
  };
}
