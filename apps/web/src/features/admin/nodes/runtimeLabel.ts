import type { TFunction } from 'i18next';
import type { NodeHealth } from '../../../api/application/nodes.ts';

/**
 * How a node runs servers, in the admin's words: "Docker (host network)", "Processes
 * (bubblewrap)". A node that does not say (an older daemon) shows a dash.
 */
export function runtimeLabel(runtime: NodeHealth['runtime'], t: TFunction<'admin'>): string {
  if (!runtime) return '—';
  if (runtime.driver === 'docker') {
    if (runtime.network === 'host') return t('nodes.runtime.docker_host');
    if (runtime.network) return t('nodes.runtime.docker_network', { network: runtime.network });
    return t('nodes.runtime.docker');
  }
  if (runtime.driver === 'process') {
    if (runtime.confinement === 'bwrap') return t('nodes.runtime.process_bwrap');
    if (runtime.confinement === 'none') return t('nodes.runtime.process_unconfined');
    return t('nodes.runtime.process');
  }
  return runtime.driver;
}
