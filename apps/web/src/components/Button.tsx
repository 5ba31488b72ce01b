import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner.tsx';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-sky-600 text-white hover:bg-sky-500 disabled:hover:bg-sky-600',
  secondary: 'bg-zinc-700 text-zinc-100 hover:bg-zinc-600 disabled:hover:bg-zinc-700',
  danger: 'bg-red-600 text-white hover:bg-red-500 disabled:hover:bg-red-600',
  ghost: 'bg-transparent text-zinc-300 hover:bg-zinc-800 hover:text-white',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  isLoading?: boolean;
}

export function Button({
  variant = 'primary',
  isLoading = false,
  className = '',
  children,
  type,
  disabled,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      disabled={disabled || isLoading}
      className={`focus-ring inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {isLoading && <Spinner size="small" />}
      {children}
    </button>
  );
}
