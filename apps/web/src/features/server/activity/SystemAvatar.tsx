/**
 * The mark beside an event no person did (an install finishing, a schedule, the daemon): a gear in
 * the avatar's circle, so the row lines up with its neighbours without pretending to be someone.
 */
export function SystemAvatar() {
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-system"
      className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-zinc-700 text-zinc-200"
    >
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="h-4 w-4">
        <circle cx="12" cy="12" r="3" />
        <path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" />
      </svg>
    </span>
  );
}
