import { useEffect, useRef } from 'react';
import offline from 'virtual:i18n/offline';
import { useConfirm } from '../../../components/confirm-dialog';
import { useT } from '../../../i18n/runtime';

/**
 * Before a logout while `count` runs still wait in this browser (CONTRACT.md §20): asks whether to
 * log out and lose them; `onLeave` or `onStay` is the answer.
 */
export default function LogoutWarning({
  count,
  onLeave,
  onStay,
}: {
  count: number;
  onLeave: () => void;
  onStay: () => void;
}) {
  const t = useT(offline);
  const { confirm, dialog } = useConfirm();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void confirm(t('offline.logout.message', { count }), {
      title: t('offline.logout.title'),
      confirmLabel: t('offline.logout.confirm'),
      cancelLabel: t('offline.logout.stay'),
    }).then((leave) => (leave ? onLeave() : onStay()));
  }, [count, confirm, t, onLeave, onStay]);
  return dialog;
}
