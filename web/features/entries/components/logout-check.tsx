import { useEffect, useRef } from 'react';
import offline from 'virtual:i18n/offline';
import { useConfirm } from '../../../components/confirm-dialog';
import { useT } from '../../../i18n/runtime';
import { forgetOfflineData, offlineQueue } from '../offline-queue';

/**
 * Before a logout (CONTRACT.md §20): when runs of `userId` still wait in this browser, asks whether
 * to log out and lose them; then forgets every queued run and every cached answer
 * (forgetOfflineData) and calls `onLeave`, or `onStay` when the runner stays.
 */
export default function LogoutCheck({
  userId,
  onLeave,
  onStay,
}: {
  userId: number;
  onLeave: () => void;
  onStay: () => void;
}) {
  const t = useT(offline);
  const { confirm, dialog } = useConfirm();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void (async () => {
      const runs = await offlineQueue.list(userId);
      if (runs.length > 0) {
        const leave = await confirm(t('offline.logout.message', { count: runs.length }), {
          title: t('offline.logout.title'),
          confirmLabel: t('offline.logout.confirm'),
          cancelLabel: t('offline.logout.stay'),
        });
        if (!leave) return onStay();
      }
      await forgetOfflineData();
      onLeave();
    })();
  }, [userId, confirm, t, onLeave, onStay]);
  return dialog;
}
