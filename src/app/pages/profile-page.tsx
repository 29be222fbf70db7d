import { Button, Callout, Flex, Grid, Heading, Spinner } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../engine/data/api-error.js';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { registeredProfileCards } from '../../engine/registry/index.js';
import { ADMIN_ROLE } from '../../shared/roles.js';
import { authApi } from '../auth/auth-api.js';
import { useAuth } from '../auth/auth-context.js';
import { RegisteredParts } from '../registered-parts.js';
import { usePageTitle } from '../use-page-title.js';
import { PasswordForm } from './password-form.js';
import { ProductNameCard } from './product-name-card.js';
import { ProfileForm } from './profile-form.js';

/** The query key of the signed-in admin's profile. */
export const ME_QUERY_KEY = ['auth', 'me'] as const;

/**
 * `/profile` (and `/user`): the signed-in user's profile from GET /api/auth/me, the password
 * change, and the cards the features register for the role (`profileCards`: two-factor sign-in).
 */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  usePageTitle('pages.titles.profile');
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => authApi.me(), staleTime: 0 });

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.profile')}
      </Heading>
      {me.isPending && (
        <Flex align="center" gap="2" role="status">
          <Spinner /> {t('common.loading')}
        </Flex>
      )}
      {me.isError && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>
            {t('toasts.profileFetchFailed')}: {describeError(me.error, t)}
          </Callout.Text>
          <Button size="1" variant="soft" onClick={() => void me.refetch()}>
            {t('common.retry')}
          </Button>
        </Callout.Root>
      )}
      {me.data && (
        <Grid columns={{ initial: '1', lg: '2' }} gap="4" align="start">
          <ProfileForm key={me.data.id} profile={me.data} onSaved={(user) => queryClient.setQueryData(ME_QUERY_KEY, user)} />
          <PasswordForm />
          {user?.role === ADMIN_ROLE && <ProductNameCard />}
          <RegisteredParts parts={registeredProfileCards()} role={user?.role} />
        </Grid>
      )}
    </Flex>
  );
}

export { ProfilePage as Component };
export default ProfilePage;
