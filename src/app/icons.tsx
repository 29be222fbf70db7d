import type { SVGProps } from 'react';

// A few line icons drawn here so the sign-in page need not load the whole @radix-ui/react-icons module.

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Icon({ size = 15, children, ...props }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 15 15"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      {...props}
    >
      {children}
    </svg>
  );
}

/** A globe: the language choice. */
export function GlobeLineIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="7.5" cy="7.5" r="6" />
      <path d="M1.5 7.5h12M7.5 1.5c1.8 1.7 2.6 3.7 2.6 6s-.8 4.3-2.6 6c-1.8-1.7-2.6-3.7-2.6-6s.8-4.3 2.6-6z" />
    </Icon>
  );
}

/** A ticked circle: success. */
export function CheckCircleLineIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="7.5" cy="7.5" r="6" />
      <path d="M4.8 7.7l1.9 1.9 3.6-4" />
    </Icon>
  );
}

/** A warning triangle: an error. */
export function WarningLineIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M7.5 1.8l6 11H1.5z" />
      <path d="M7.5 6v3M7.5 10.9v.1" />
    </Icon>
  );
}
