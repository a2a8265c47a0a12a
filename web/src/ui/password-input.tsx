import './form-fields.css';
import {
  type InputHTMLAttributes,
  type ReactNode,
  type RefObject,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useText } from '../text/use-text.ts';
import { EyeIcon, EyeOffIcon } from './icons.tsx';

type NativeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'ref'>;

export interface PasswordInputProps extends NativeInputProps {
  /** The input's id: its <label htmlFor> and the toggle's aria-controls point here. */
  readonly id: string;
  readonly value: string;
  readonly onValueChange: (value: string) => void;
  /** The input element, for callers that move focus to it. */
  readonly inputRef?: RefObject<HTMLInputElement | null>;
  /** Tab position of the show/hide toggle; the input's own is `tabIndex`. */
  readonly toggleTabIndex?: number;
  /** Decoration shown inside the field, before the toggle (the reset form's valid/invalid icon). */
  readonly adornment?: ReactNode;
}

interface Caret {
  readonly start: number | null;
  readonly end: number | null;
}

/**
 * A password field with a show/hide toggle (SPEC §2). Toggling with the pointer keeps focus and the
 * caret in the field, so typing goes on where it stopped; from the keyboard the toggle keeps focus.
 * Nothing blocks paste or password managers.
 */
export function PasswordInput({
  value,
  onValueChange,
  inputRef,
  toggleTabIndex,
  adornment,
  className,
  ...inputProps
}: PasswordInputProps) {
  const { t } = useText();
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? ownRef;
  const [shown, setShown] = useState(false);
  const caret = useRef<Caret | null>(null);

  const toggle = () => {
    const input = ref.current;
    const typing = input !== null && input === document.activeElement;
    caret.current = typing ? { start: input.selectionStart, end: input.selectionEnd } : null;
    setShown((was) => !was);
  };

  // Changing the input type can drop focus or the selection in some browsers: put both back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when `shown` flips, reads refs only
  useLayoutEffect(() => {
    const input = ref.current;
    const saved = caret.current;
    caret.current = null;
    if (!input || !saved) return;
    input.focus();
    input.setSelectionRange(saved.start, saved.end);
  }, [shown]);

  return (
    <div className={adornment ? 'password-input password-input--adorned' : 'password-input'}>
      <input
        {...inputProps}
        ref={ref}
        className={className ?? 'field__input'}
        type={shown ? 'text' : 'password'}
        value={value}
        onChange={(event) => onValueChange(event.currentTarget.value)}
      />
      {adornment ? <span className="password-input__adornment">{adornment}</span> : null}
      <button
        type="button"
        className="password-input__toggle"
        aria-controls={inputProps.id}
        // A toggle button keeps one name; its state is aria-pressed (WAI-ARIA APG button pattern), so
        // it never reads as "Hide password, pressed".
        aria-pressed={shown}
        aria-label={t('showPassword')}
        tabIndex={toggleTabIndex}
        // A pointer press must not take focus out of the field (the caret stays where it was).
        onMouseDown={(event) => event.preventDefault()}
        onClick={toggle}
      >
        {shown ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}
