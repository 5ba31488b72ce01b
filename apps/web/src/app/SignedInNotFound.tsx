import { useNavigate } from 'react-router';
import { NotFoundScreen } from '../components/ScreenBlock.tsx';
import { useTitle } from '../lib/useTitle.ts';

/** Any unmatched path in the signed-in area (spec §2). */
export function SignedInNotFound() {
  const navigate = useNavigate();
  useTitle('404');
  return <NotFoundScreen onBack={() => void navigate(-1)} />;
}
