import twoFactor from 'virtual:i18n/twoFactor';
import { useConfirm } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { useResetTwoFactor } from '../api/two-factor';

/** The admin's "Reset two-factor" on a user's page (§21): for a runner who lost their phone. */
export function ResetTwoFactorButton({ user }: { user: { id: number; name: string } }) {
  useT(twoFactor);
  const reset = useResetTwoFactor();
  const { confirm, dialog } = useConfirm();
  const run = async () => {
    const sure = await confirm(t('twoFactor.resetConfirm', { name: user.name }), {
      title: t('twoFactor.reset'),
      confirmLabel: t('twoFactor.reset'),
      tone: 'danger',
    });
    if (sure) {
      reset.mutate(user.id, { onSuccess: () => notify(t('twoFactor.resetDone', { name: user.name }), 'success') });
    }
  };
  return (
    <>
      <button type="button" className="btn btn-outline-danger" disabled={reset.isPending} onClick={() => void run()}>
        {t('twoFactor.reset')}
      </button>
      {dialog}
    </>
  );
}
