import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundScreen } from '../../components/ScreenBlock.tsx';
import { useTitle } from '../../lib/useTitle.ts';

/** Any other /auth path: not found, with a way back to the login form (spec §2). */
export function AuthNotFound() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  useTitle(t('not_found.title'));
  return <NotFoundScreen onBack={() => void navigate('/auth/login')} actionLabel={t('not_found.back')} />;
}
