import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { usePageTitle } from '../use-page-title.js';

/** Questions and answers, as literal keys (the locale test checks each in every language). */
const FAQ = [
  { q: 'pages.faq.q1', a: 'pages.faq.a1' },
  { q: 'pages.faq.q2', a: 'pages.faq.a2' },
  { q: 'pages.faq.q3', a: 'pages.faq.a3' },
  { q: 'pages.faq.q4', a: 'pages.faq.a4' },
  { q: 'pages.faq.q5', a: 'pages.faq.a5' },
] as const;

/** `/faq`: the questions programme staff ask most about the console. */
export function FaqPage() {
  const { t } = useTranslation();
  usePageTitle('pages.titles.faq');
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.faq')}
      </Heading>
      {FAQ.map(({ q, a }) => (
        <Card key={q} size="2" asChild>
          <section aria-labelledby={q}>
            <Heading as="h2" size="3" mb="2" id={q}>
              {t(q)}
            </Heading>
            <Text as="p" size="2">
              {t(a)}
            </Text>
          </section>
        </Card>
      ))}
    </Flex>
  );
}

export { FaqPage as Component };
export default FaqPage;
