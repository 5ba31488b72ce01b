import { useOutletContext } from 'react-router';
import type { AdminNode } from '../../../api/application/nodes.ts';

/** The node NodeViewLayout loaded, for its tabs. */
export function useAdminNode(): AdminNode {
  return useOutletContext<AdminNode>();
}
