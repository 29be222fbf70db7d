import { Flex, Heading, Text } from '@radix-ui/themes';
import { type DescriptionFieldProps, type FieldHelpProps, helpId, type ObjectFieldTemplateProps, type TitleFieldProps } from '@rjsf/utils';
import type { ReactElement } from 'react';

/** The fields of an object, one under the other. */
export function ObjectFieldTemplate({ properties, title, fieldPathId, required, registry, uiSchema, schema }: ObjectFieldTemplateProps): ReactElement {
  const isRoot = fieldPathId.path.length === 0;
  return (
    <Flex direction="column" gap="4">
      {!isRoot && title && (
        <registry.templates.TitleFieldTemplate
          id={`${fieldPathId.$id}__title`}
          title={title}
          required={required}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
        />
      )}
      {properties.filter((property) => !property.hidden).map((property) => property.content)}
      {properties.filter((property) => property.hidden).map((property) => property.content)}
    </Flex>
  );
}

/** A nested object's title. */
export function TitleFieldTemplate({ id, title }: TitleFieldProps): ReactElement {
  return (
    <Heading as="h3" size="3" id={id}>
      {title}
    </Heading>
  );
}

/** A field's description, muted. */
export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps): ReactElement | null {
  if (!description) return null;
  return (
    <Text as="div" id={id} size="1" color="gray">
      {description}
    </Text>
  );
}

/** A field's help text, muted. */
export function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps): ReactElement | null {
  if (!help) return null;
  return (
    <Text as="div" id={helpId(fieldPathId)} size="1" color="gray">
      {help}
    </Text>
  );
}

/** No list of all errors at the top: each error shows under its field. */
export function ErrorListTemplate(): null {
  return null;
}
