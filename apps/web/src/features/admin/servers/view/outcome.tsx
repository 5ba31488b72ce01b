import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { MessageBox } from '../../../../components/MessageBox.tsx';

/** What the last action on a tab did: shown beside its button, so a long form's result is in view. */
export type Outcome = { type: 'success' | 'error'; message: string } | null;

export function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  return {
    outcome,
    clear: () => setOutcome(null),
    succeeded: (message: string) => setOutcome({ type: 'success', message }),
    /** The API's detail in words (not "Request failed"). */
    failed: (error: unknown) => setOutcome({ type: 'error', message: httpErrorToHuman(error) }),
  };
}

export function OutcomeMessage({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return <MessageBox type={outcome.type}>{outcome.message}</MessageBox>;
}

/** After a change: the view and every servers list read the server again. */
export function refreshServers(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: ['admin', 'servers'] });
}
