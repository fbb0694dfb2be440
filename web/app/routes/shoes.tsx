import shoesTexts from 'virtual:i18n/shoes';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { ShoesManager } from '../../features/shoes/components/shoes-manager';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(shoesTexts);
  const units = useUser()?.units ?? 'km';
  return (
    <>
      <PageTitle title={t('shoes.title')}>{t('shoes.title')}</PageTitle>
      <ShoesManager units={units} />
    </>
  );
}
