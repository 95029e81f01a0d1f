import {
  Button,
  Center,
  FileButton,
  Group,
  Image,
  Input,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  AGENCY_IMAGE_MAX_BYTES,
  AGENCY_IMAGE_TYPES,
  type TAgency,
  type TAgencyImageType,
} from '@stn/contracts/agencies';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/list/confirm.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { readDataUrl } from '../../lib/files.ts';
import { formatSize } from '../../lib/format.ts';
import { useAgencyImage } from './api/agencies.ts';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml';

/** Header logo, login logo and favicon of an agency's site (POST/DELETE /v1/agencies/image/{id}). */
export function AgencyImagesPanel({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius="md" maw={860}>
      <Stack>
        <Title order={4}>{t('admin.agency_images.title')}</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {AGENCY_IMAGE_TYPES.map((type) => (
            <ImageSlot key={type} agency={agency} type={type} />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function ImageSlot({ agency, type }: { agency: TAgency; type: TAgencyImageType }) {
  const { t } = useTranslation();
  const image = useAgencyImage(agency.id);
  const [error, setError] = useState<string | null>(null);
  const current = agency.branding[type] ?? null;

  const upload = async (file: File | null) => {
    if (!file) return;
    setError(null);
    if (file.size > AGENCY_IMAGE_MAX_BYTES) {
      setError(t('agencies.image_too_large', { size: formatSize(AGENCY_IMAGE_MAX_BYTES) }));
      return;
    }
    try {
      await image.mutateAsync({ type, data: await readDataUrl(file) });
    } catch (err) {
      if (err instanceof ApiError) setError(err.field('data') ?? err.message);
    }
  };

  const remove = () =>
    confirmAction({
      title: t('admin.agency_images.remove_title'),
      text: t('admin.agency_images.remove_text'),
      confirm: t('admin.agency_images.remove'),
      onConfirm: () => image.mutate({ type, data: null }),
    });

  return (
    <Input.Wrapper label={t(`admin.agency_images.types.${type}`)} error={error}>
      <Stack gap="xs" mt={4}>
        <Center
          h={96}
          bg="var(--mantine-color-gray-1)"
          style={{ borderRadius: 'var(--mantine-radius-sm)' }}
          data-testid={`agency-image-${type}`}
        >
          {current ? (
            <Image
              src={current}
              alt={t(`admin.agency_images.types.${type}`)}
              mah={80}
              maw="90%"
              fit="contain"
            />
          ) : (
            <Text size="sm" c="dimmed">
              {t('admin.agency_images.none')}
            </Text>
          )}
        </Center>
        <Group gap="xs">
          <FileButton onChange={(f) => void upload(f)} accept={ACCEPT}>
            {(props) => (
              <Button
                size="xs"
                variant="light"
                loading={image.isPending}
                data-testid={`agency-image-upload-${type}`}
                {...props}
              >
                {t('admin.agency_images.upload')}
              </Button>
            )}
          </FileButton>
          {current && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={remove}
              data-testid={`agency-image-remove-${type}`}
            >
              {t('admin.agency_images.remove')}
            </Button>
          )}
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
