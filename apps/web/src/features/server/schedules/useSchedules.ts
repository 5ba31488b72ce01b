import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getSchedule, getSchedules, type Schedule } from '../../../api/schedules.ts';
import { useServerStore } from '../store.ts';

export const schedulesQueryKey = (serverId: string) => ['server', serverId, 'schedules'] as const;
export const scheduleQueryKey = (serverId: string, id: number) =>
  ['server', serverId, 'schedules', id] as const;

/** How often a processing schedule is asked for again: the chain's progress shows within seconds. */
export const PROCESSING_POLL_MS = 2_000;
/** The longest wait before asking again for a schedule that is due (bounds clock drift and sleep). */
const DUE_POLL_CAP_MS = 60_000;
/** A next run already past (runner busy or every panel down): ask now and then, not every two seconds. */
export const OVERDUE_POLL_MS = 10_000;

/**
 * When to ask again (spec: processing and last run update while the page is open): every two
 * seconds while any schedule runs; otherwise just after the earliest active next run, when the
 * runner will have started it (every ten seconds once that is past); never for a page of inactive
 * schedules.
 */
export function pollInterval(schedules: Schedule[], now = Date.now()): number | false {
  if (schedules.some((s) => s.isProcessing)) return PROCESSING_POLL_MS;
  const due = schedules
    .filter((s) => s.isActive && s.nextRunAt)
    .map((s) => s.nextRunAt!.getTime() - now + 1_000);
  if (due.length === 0) return false;
  const soonest = Math.min(...due);
  return soonest < PROCESSING_POLL_MS ? OVERDUE_POLL_MS : Math.min(DUE_POLL_CAP_MS, soonest);
}

/** The current server's schedules with their tasks (GET .../schedules?include=tasks). */
export function useSchedules() {
  const serverId = useServerStore((s) => s.server!.id);
  return useQuery({
    queryKey: schedulesQueryKey(serverId),
    queryFn: () => getSchedules(serverId),
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (query.state.data ? pollInterval(query.state.data) : false),
  });
}

/** One schedule with its tasks (GET .../schedules/{id}?include=tasks), polled as `pollInterval` says. */
export function useSchedule(id: number) {
  const serverId = useServerStore((s) => s.server!.id);
  const client = useQueryClient();
  return useQuery({
    queryKey: scheduleQueryKey(serverId, id),
    queryFn: () => getSchedule(serverId, id),
    retry: false,
    refetchOnWindowFocus: false,
    // The list's copy shows at once while the schedule itself loads.
    initialData: () => client.getQueryData<Schedule[]>(schedulesQueryKey(serverId))?.find((s) => s.id === id),
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (query.state.data ? pollInterval([query.state.data]) : false),
  });
}

/**
 * Puts a schedule answered by the panel into both caches (its own and the list's); `null` with an
 * id removes it from both.
 */
export function useScheduleCache() {
  const client = useQueryClient();
  const serverId = useServerStore((s) => s.server!.id);
  return {
    put(schedule: Schedule) {
      client.setQueryData(scheduleQueryKey(serverId, schedule.id), schedule);
      client.setQueryData<Schedule[]>(schedulesQueryKey(serverId), (list) =>
        list === undefined
          ? undefined
          : list.some((s) => s.id === schedule.id)
            ? list.map((s) => (s.id === schedule.id ? schedule : s))
            : [...list, schedule],
      );
    },
    remove(id: number) {
      client.removeQueries({ queryKey: scheduleQueryKey(serverId, id), exact: true });
      client.setQueryData<Schedule[]>(schedulesQueryKey(serverId), (list) =>
        list?.filter((s) => s.id !== id),
      );
    },
    /** Asks the panel again (after Run Now or a task change). */
    refresh(id: number) {
      return client.invalidateQueries({ queryKey: scheduleQueryKey(serverId, id), exact: true });
    },
  };
}
