import type { ReactNode } from 'react';

/**
 * Shapes for met, not met and not yet checked, so a state never rests on colour alone. Decoration
 * only: the accessible state is the text beside an icon or the field's aria-invalid.
 */
function StateIcon({ children }: { readonly children: ReactNode }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export type RequirementState = 'met' | 'unmet' | 'pending';

/** A tick (met), a cross (not met) or a ring (not met, before validation switched on). */
export function RequirementIcon({ state }: { readonly state: RequirementState }) {
  if (state === 'met') {
    return (
      <StateIcon>
        <path d="m5 12.5 4.5 4.5L19 7.5" />
      </StateIcon>
    );
  }
  if (state === 'unmet') {
    return (
      <StateIcon>
        <path d="M6 6l12 12M18 6 6 18" />
      </StateIcon>
    );
  }
  return (
    <StateIcon>
      <circle cx="12" cy="12" r="4" />
    </StateIcon>
  );
}
