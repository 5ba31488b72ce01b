import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getNodeHealth } from '../../../api/application/nodes.ts';
import { FormCheckbox } from '../components/index.ts';

/**
 * The out-of-memory killer option (the wire's `oom_disabled`), shown only where it has an effect:
 * Docker honours it, while a node that runs servers as processes always stops a server that needs
 * more memory than its limit. So for a node that says it runs processes, a note stands in for the
 * checkbox; for a Docker node, one that does not say, or no node yet (deployment by location), the
 * checkbox is shown with a hint saying where it applies. The node's runtime comes from its health.
 */
export function OomKillerField<V extends FieldValues>({
  form,
  name,
  nodeId,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  nodeId: number | null;
}) {
  const { t } = useTranslation('admin');
  const health = useQuery({
    // The node pages' health query: one answer serves both.
    queryKey: ['admin', 'nodes', nodeId, 'health'],
    queryFn: () => getNodeHealth(nodeId!),
    enabled: nodeId !== null,
    retry: false,
  });
  // Asking the node takes up to 3 s: nothing until then, rather than a checkbox that may vanish.
  if (nodeId !== null && health.isPending) return null;
  if (nodeId !== null && health.data?.runtime?.driver === 'process') {
    return <p className="text-sm text-zinc-400">{t('server_new.oom_process_node')}</p>;
  }
  return (
    <FormCheckbox
      form={form}
      name={name}
      label={t('server_new.oom_killer')}
      hint={t('server_new.oom_killer_hint')}
    />
  );
}
