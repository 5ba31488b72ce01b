import { useState } from 'react';
import { useGlobalStore } from '../../../app/store.ts';
import { avatarColour } from './avatarColour.ts';
import { initials } from './rules.ts';

/**
 * A person's avatar: their initials on a colour of their own, made here without any request. The
 * picture the API links to (Gravatar) is shown only when an admin turned remote avatars on (the
 * browser would tell that service each user's email hash, and it needs the internet), and even
 * then the initials stand in when it cannot load, never a broken image. Decorative: the name is
 * always written beside it, so screen readers skip it.
 */
export function Avatar({
  image,
  username,
  email,
  size = 'normal',
}: {
  image: string;
  username: string;
  email: string;
  size?: 'normal' | 'small';
}) {
  const remote = useGlobalStore((s) => s.settings.remoteAvatars);
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const box = size === 'small' ? 'h-8 w-8 text-xs' : 'h-10 w-10 text-sm';
  if (!remote || !image || failedFor === image) {
    return (
      <span
        aria-hidden="true"
        data-testid="avatar-initials"
        style={{ backgroundColor: avatarColour(email || username) }}
        className={`${box} inline-flex shrink-0 items-center justify-center rounded-full font-semibold text-white`}
      >
        {initials(username, email)}
      </span>
    );
  }
  return (
    <img
      src={image}
      alt=""
      aria-hidden="true"
      referrerPolicy="no-referrer"
      onError={() => setFailedFor(image)}
      className={`${box} shrink-0 rounded-full bg-zinc-800 object-cover`}
    />
  );
}
