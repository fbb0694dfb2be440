import type { FocusEvent, KeyboardEvent, SyntheticEvent } from 'react';

/** Fields focused by the pointer whose selection the pointer's release must not undo. */
const justFocused = new WeakSet<HTMLInputElement>();
/** Fields not typed into since they were focused: they still hold the value they came with. */
const untouched = new WeakSet<HTMLInputElement>();

/**
 * Props for a short field that holds a value to be typed over (a time part holding "00"): focus
 * selects the whole text, so the first key replaces it; the mouse or touch release that follows a
 * click or a tap keeps that selection (Chrome and Safari would otherwise put the caret where the
 * pointer was). And when the field is full of the value it came with and the caret is in it
 * (nothing selected), a typed digit starts the value over instead of being dropped by `maxLength`.
 * What the runner typed since focusing the field is never replaced this way.
 */
export function replaceOnType(maxLength: number, onValueChange: (value: string) => void) {
  const keepSelection = (event: SyntheticEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    if (!justFocused.has(input)) return;
    event.preventDefault();
    input.select();
  };
  return {
    maxLength,
    onFocus: (event: FocusEvent<HTMLInputElement>) => {
      const input = event.currentTarget;
      input.select();
      justFocused.add(input);
      untouched.add(input);
    },
    // A click or a tap on the field it is already in starts over too.
    onPointerDown: (event: SyntheticEvent<HTMLInputElement>) => {
      justFocused.add(event.currentTarget);
      untouched.add(event.currentTarget);
    },
    onPointerUp: keepSelection,
    onMouseUp: keepSelection,
    onClick: (event: SyntheticEvent<HTMLInputElement>) => {
      keepSelection(event);
      justFocused.delete(event.currentTarget);
    },
    onInput: (event: SyntheticEvent<HTMLInputElement>) => {
      untouched.delete(event.currentTarget);
    },
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      const input = event.currentTarget;
      justFocused.delete(input);
      if (!untouched.has(input) || !/^\d$/.test(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (input.value.length < maxLength || input.selectionStart !== input.selectionEnd) return;
      event.preventDefault();
      untouched.delete(input);
      onValueChange(event.key);
    },
  };
}
