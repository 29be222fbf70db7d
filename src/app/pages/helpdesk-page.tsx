import { CopyIcon } from '@radix-ui/react-icons';
import { Button, Callout, Card, Code, Flex, Heading, Text } from '@radix-ui/themes';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { useToasts } from '../../engine/ui/toast-context.js';
import { useAuth } from '../auth/auth-context.js';
import { usePageTitle } from '../use-page-title.js';

const STEPS = ['pages.helpdesk.step1', 'pages.helpdesk.step2', 'pages.helpdesk.step3', 'pages.helpdesk.step4'] as const;

/** `/helpdesk`: how to ask for help, and the technical details to include, ready to copy. */
export function HelpdeskPage() {
  const { t, i18n } = useTranslation();
  const toast = useToasts();
  const { user } = useAuth();
  usePageTitle('pages.titles.helpdesk');
  const details = [
    `${t('pages.helpdesk.detailTime')}: ${new Date().toISOString()}`,
    `${t('pages.helpdesk.detailAccount')}: ${user?.email ?? '-'}`,
    `${t('pages.helpdesk.detailLanguage')}: ${i18n.resolvedLanguage ?? 'en'}`,
    `${t('pages.helpdesk.detailBrowser')}: ${navigator.userAgent}`,
  ].join('\n');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(details);
      toast.success(t('pages.helpdesk.copied'));
    } catch {
      toast.error(t('pages.helpdesk.copyFailed'));
    }
  };

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.helpdesk')}
      </Heading>
      <Text>{t('pages.helpdesk.intro')}</Text>
      <Card size="2">
        <Heading as="h2" size="3" mb="2">
          {t('pages.helpdesk.stepsHeading')}
        </Heading>
        <ol className="steps-list">
          {STEPS.map((key) => (
            <li key={key}>
              <Text size="2">{t(key)}</Text>
            </li>
          ))}
        </ol>
      </Card>
      <Card size="2">
        <Flex justify="between" align="center" gap="3" mb="2" wrap="wrap">
          <Heading as="h2" size="3">
            {t('pages.helpdesk.detailsHeading')}
          </Heading>
          <Button variant="soft" size="1" onClick={() => void copy()}>
            <CopyIcon aria-hidden />
            {t('pages.helpdesk.copy')}
          </Button>
        </Flex>
        <Code size="2" variant="ghost" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', display: 'block' }}>
          {details}
        </Code>
      </Card>
      <Callout.Root color="amber" highContrast>
        <Callout.Text>{t('common.antiFraud')}</Callout.Text>
      </Callout.Root>
    </Flex>
  );
}

export { HelpdeskPage as Component };
export default HelpdeskPage;
