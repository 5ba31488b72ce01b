import { useState } from 'react';
import { initials } from './rules.ts';

/**
 * A person's picture; their initials when it cannot load (no network, blocked by the content
 * policy, no such image), never a broken image. Decorative: the name is always written beside it.
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
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const box = size === 'small' ? 'h-8 w-8 text-xs' : 'h-10 w-10 text-sm';
  if (!image || failedFor === image) {
    return (
      <span
        aria-hidden="true"
        data-testid="avatar-initials"
        className={`${box} inline-flex shrink-0 items-center justify-center rounded-full bg-sky-900 font-semibold text-sky-100`}
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
