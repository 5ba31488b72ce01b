import { useTranslation } from 'react-i18next';
import { ScreenBlock } from '../../components/ScreenBlock.tsx';
import type { Server } from '../../api/servers.ts';
import { installFailed } from './installFailed.ts';

/** Which notice a server in a conflict state gets (spec 001 §2 "Conflict notice screens"). */
export function conflictKind(
  server: Pick<Server, 'status' | 'isTransferring'>,
): 'transferring' | 'installing' | 'install_failed' | 'suspended' | 'restoring' | null {
  if (server.isTransferring) return 'transferring';
  // A failed install waits for an administrator, not for time: it is not "ready soon".
  if (installFailed(server.status)) return 'install_failed';
  switch (server.status) {
    case null:
      return null;
    case 'suspended':
      return 'suspended';
    case 'restoring_backup':
      return 'restoring';
    // installing and any status we do not know yet: the server is not ready.
    default:
      return 'installing';
  }
}

export function ConflictNotice({ server }: { server: Pick<Server, 'status' | 'isTransferring'> }) {
  const { t } = useTranslation('server');
  const kind = conflictKind(server);
  if (!kind) return null;
  return <ScreenBlock title={t(`conflict.${kind}_title`)} message={t(`conflict.${kind}`)} />;
}
