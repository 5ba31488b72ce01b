/** The two full-page illustrations (spec §2), drawn as small inline SVGs of our own. */
export function ServerDownIllustration({ label, className = '' }: { label: string; className?: string }) {
  return (
    <svg viewBox="0 0 200 160" role="img" aria-label={label} className={className}>
      <rect x="40" y="20" width="120" height="36" rx="6" fill="#27272a" stroke="#52525b" strokeWidth="2" />
      <rect x="40" y="64" width="120" height="36" rx="6" fill="#27272a" stroke="#52525b" strokeWidth="2" />
      <rect x="40" y="108" width="120" height="36" rx="6" fill="#27272a" stroke="#52525b" strokeWidth="2" />
      <circle cx="58" cy="38" r="5" fill="#ef4444" />
      <circle cx="58" cy="82" r="5" fill="#ef4444" />
      <circle cx="58" cy="126" r="5" fill="#71717a" />
      <path d="M80 38h60M80 82h60M80 126h60" stroke="#3f3f46" strokeWidth="6" strokeLinecap="round" />
      <path
        d="M150 8l-14 22h12l-10 20"
        fill="none"
        stroke="#f59e0b"
        strokeWidth="4"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function NotFoundIllustration({ label, className = '' }: { label: string; className?: string }) {
  return (
    <svg viewBox="0 0 200 160" role="img" aria-label={label} className={className}>
      <rect x="30" y="30" width="110" height="90" rx="8" fill="#27272a" stroke="#52525b" strokeWidth="2" />
      <path d="M30 48h110" stroke="#52525b" strokeWidth="2" />
      <circle cx="42" cy="39" r="3" fill="#71717a" />
      <circle cx="52" cy="39" r="3" fill="#71717a" />
      <path
        d="M55 75l12 12M67 75L55 87M95 75l12 12M107 75L95 87"
        stroke="#a1a1aa"
        strokeWidth="4"
        strokeLinecap="round"
      />
      <path d="M68 105q17-10 34 0" fill="none" stroke="#a1a1aa" strokeWidth="4" strokeLinecap="round" />
      <circle cx="140" cy="110" r="26" fill="none" stroke="#38bdf8" strokeWidth="6" />
      <path d="M159 129l22 22" stroke="#38bdf8" strokeWidth="8" strokeLinecap="round" />
    </svg>
  );
}
