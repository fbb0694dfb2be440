import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

interface DropdownProps {
  label: ReactNode;
  /** Menu items: links or buttons with class dropdown-item. */
  children: ReactNode;
  align?: 'start' | 'end';
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? Array.from(menu.querySelectorAll<HTMLElement>('a.dropdown-item, button.dropdown-item')) : [];
}

/**
 * A navbar dropdown driven by React state (no Bootstrap JS). Keyboard: Enter,
 * Space or ArrowDown opens and focuses the first item; arrows move; Escape
 * closes and returns focus to the toggle; Tab leaves and closes.
 */
export function Dropdown({ label, children, align = 'start' }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLLIElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const focusFirst = useRef(false);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    if (focusFirst.current) {
      menuItems(menuRef.current)[0]?.focus();
      focusFirst.current = false;
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onToggleKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusFirst.current = true;
      if (open) menuItems(menuRef.current)[0]?.focus();
      setOpen(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const items = menuItems(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      toggleRef.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <li
      ref={rootRef}
      className="nav-item dropdown"
      onBlur={(event) => {
        if (!rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggleRef}
        type="button"
        className={`nav-link dropdown-toggle btn btn-link${open ? ' show' : ''}`}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          focusFirst.current = false;
          setOpen((value) => !value);
        }}
        onKeyDown={onToggleKeyDown}
      >
        {label}
      </button>
      <ul
        ref={menuRef}
        id={menuId}
        className={`dropdown-menu${align === 'end' ? ' dropdown-menu-end' : ''}${open ? ' show' : ''}`}
        onKeyDown={onMenuKeyDown}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('.dropdown-item')) setOpen(false);
        }}
      >
        {children}
      </ul>
    </li>
  );
}
