import { useQuery } from '@tanstack/react-query';
import { getServerStartup, type StartupData, type UpdatedStartupVariable } from '../../../api/startup.ts';
import { useServerStore } from '../store.ts';

export const startupQueryKey = (serverId: string) => ['server', serverId, 'startup'] as const;

/**
 * The current server's startup data (GET .../startup). The startup page and the console's Java
 * panel share this cache, so a change made on one shows on the other.
 */
export function useServerStartup(enabled = true) {
  const serverId = useServerStore((s) => s.server!.id);
  return useQuery({
    queryKey: startupQueryKey(serverId),
    queryFn: () => getServerStartup(serverId),
    enabled,
    retry: false,
  });
}

/** The startup data after the panel accepted a variable: its stored value and the new command. */
export function withUpdatedVariable(data: StartupData, answer: UpdatedStartupVariable): StartupData {
  return {
    ...data,
    invocation: answer.invocation,
    variables: data.variables.map((v) =>
      v.envVariable === answer.variable.envVariable ? answer.variable : v,
    ),
  };
}
