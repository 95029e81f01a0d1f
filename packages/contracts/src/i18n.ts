import agenciesBr from '../locales/agencies.br.json' with { type: 'json' };
import agenciesEn from '../locales/agencies.en.json' with { type: 'json' };
import agenciesEs from '../locales/agencies.es.json' with { type: 'json' };
import alertsBr from '../locales/alerts.br.json' with { type: 'json' };
import alertsEn from '../locales/alerts.en.json' with { type: 'json' };
import alertsEs from '../locales/alerts.es.json' with { type: 'json' };
import analyticsBr from '../locales/analytics.br.json' with { type: 'json' };
import analyticsEn from '../locales/analytics.en.json' with { type: 'json' };
import analyticsEs from '../locales/analytics.es.json' with { type: 'json' };
import automationsBr from '../locales/automations.br.json' with { type: 'json' };
import automationsEn from '../locales/automations.en.json' with { type: 'json' };
import automationsEs from '../locales/automations.es.json' with { type: 'json' };
import automationsActionsBr from '../locales/automations-actions.br.json' with { type: 'json' };
import automationsActionsEn from '../locales/automations-actions.en.json' with { type: 'json' };
import automationsActionsEs from '../locales/automations-actions.es.json' with { type: 'json' };
import automationsEngineBr from '../locales/automations-engine.br.json' with { type: 'json' };
import automationsEngineEn from '../locales/automations-engine.en.json' with { type: 'json' };
import automationsEngineEs from '../locales/automations-engine.es.json' with { type: 'json' };
import automationsInboundBr from '../locales/automations-inbound.br.json' with { type: 'json' };
import automationsInboundEn from '../locales/automations-inbound.en.json' with { type: 'json' };
import automationsInboundEs from '../locales/automations-inbound.es.json' with { type: 'json' };
import br from '../locales/br.json' with { type: 'json' };
import broadcastsBr from '../locales/broadcasts.br.json' with { type: 'json' };
import broadcastsEn from '../locales/broadcasts.en.json' with { type: 'json' };
import broadcastsEs from '../locales/broadcasts.es.json' with { type: 'json' };
import businessesBr from '../locales/businesses.br.json' with { type: 'json' };
import businessesEn from '../locales/businesses.en.json' with { type: 'json' };
import businessesEs from '../locales/businesses.es.json' with { type: 'json' };
import callsBr from '../locales/calls.br.json' with { type: 'json' };
import callsEn from '../locales/calls.en.json' with { type: 'json' };
import callsEs from '../locales/calls.es.json' with { type: 'json' };
import contactsBr from '../locales/contacts.br.json' with { type: 'json' };
import contactsEn from '../locales/contacts.en.json' with { type: 'json' };
import contactsEs from '../locales/contacts.es.json' with { type: 'json' };
import credentialsBr from '../locales/credentials.br.json' with { type: 'json' };
import credentialsEn from '../locales/credentials.en.json' with { type: 'json' };
import credentialsEs from '../locales/credentials.es.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import fieldsBr from '../locales/fields.br.json' with { type: 'json' };
import fieldsEn from '../locales/fields.en.json' with { type: 'json' };
import fieldsEs from '../locales/fields.es.json' with { type: 'json' };
import googleBr from '../locales/google.br.json' with { type: 'json' };
import googleEn from '../locales/google.en.json' with { type: 'json' };
import googleEs from '../locales/google.es.json' with { type: 'json' };
import inboxBr from '../locales/inbox.br.json' with { type: 'json' };
import inboxEn from '../locales/inbox.en.json' with { type: 'json' };
import inboxEs from '../locales/inbox.es.json' with { type: 'json' };
import installsBr from '../locales/installs.br.json' with { type: 'json' };
import installsEn from '../locales/installs.en.json' with { type: 'json' };
import installsEs from '../locales/installs.es.json' with { type: 'json' };
import integrationsBr from '../locales/integrations.br.json' with { type: 'json' };
import integrationsEn from '../locales/integrations.en.json' with { type: 'json' };
import integrationsEs from '../locales/integrations.es.json' with { type: 'json' };
import leadformsBr from '../locales/leadforms.br.json' with { type: 'json' };
import leadformsEn from '../locales/leadforms.en.json' with { type: 'json' };
import leadformsEs from '../locales/leadforms.es.json' with { type: 'json' };
import messagesBr from '../locales/messages.br.json' with { type: 'json' };
import messagesEn from '../locales/messages.en.json' with { type: 'json' };
import messagesEs from '../locales/messages.es.json' with { type: 'json' };
import numbersBr from '../locales/numbers.br.json' with { type: 'json' };
import numbersEn from '../locales/numbers.en.json' with { type: 'json' };
import numbersEs from '../locales/numbers.es.json' with { type: 'json' };
import optinsBr from '../locales/optins.br.json' with { type: 'json' };
import optinsEn from '../locales/optins.en.json' with { type: 'json' };
import optinsEs from '../locales/optins.es.json' with { type: 'json' };
import ordersBr from '../locales/orders.br.json' with { type: 'json' };
import ordersEn from '../locales/orders.en.json' with { type: 'json' };
import ordersEs from '../locales/orders.es.json' with { type: 'json' };
import ownMailBr from '../locales/own-mail.br.json' with { type: 'json' };
import ownMailEn from '../locales/own-mail.en.json' with { type: 'json' };
import ownMailEs from '../locales/own-mail.es.json' with { type: 'json' };
import registrationBr from '../locales/registration.br.json' with { type: 'json' };
import registrationEn from '../locales/registration.en.json' with { type: 'json' };
import registrationEs from '../locales/registration.es.json' with { type: 'json' };
import sandboxBr from '../locales/sandbox.br.json' with { type: 'json' };
import sandboxEn from '../locales/sandbox.en.json' with { type: 'json' };
import sandboxEs from '../locales/sandbox.es.json' with { type: 'json' };
import subscriptionsBr from '../locales/subscriptions.br.json' with { type: 'json' };
import subscriptionsEn from '../locales/subscriptions.en.json' with { type: 'json' };
import subscriptionsEs from '../locales/subscriptions.es.json' with { type: 'json' };
import supportBr from '../locales/support.br.json' with { type: 'json' };
import supportEn from '../locales/support.en.json' with { type: 'json' };
import supportEs from '../locales/support.es.json' with { type: 'json' };
import tasksBr from '../locales/tasks.br.json' with { type: 'json' };
import tasksEn from '../locales/tasks.en.json' with { type: 'json' };
import tasksEs from '../locales/tasks.es.json' with { type: 'json' };
import usersBr from '../locales/users.br.json' with { type: 'json' };
import usersEn from '../locales/users.en.json' with { type: 'json' };
import usersEs from '../locales/users.es.json' with { type: 'json' };
import zapierBr from '../locales/zapier.br.json' with { type: 'json' };
import zapierEn from '../locales/zapier.en.json' with { type: 'json' };
import zapierEs from '../locales/zapier.es.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, type TLanguage } from './constants.ts';
import { type Catalogue, mergeCatalogues as merge, pluralCategory } from './language.ts';
import { fieldKey, fieldLabel, issueMessageWith } from './zod.ts';

// The server and the tests read these from here, beside the messages.
export { isLanguage, languageFromHeader, pluralCategory } from './language.ts';

// Each domain keeps its messages in its own files (locales/<domain>.<lang>.json), merged here.
export const SERVER_CATALOGUES: Record<TLanguage, Catalogue[]> = {
  en: [
    en,
    agenciesEn,
    businessesEn,
    usersEn,
    credentialsEn,
    fieldsEn,
    installsEn,
    inboxEn,
    callsEn,
    numbersEn,
    sandboxEn,
    messagesEn,
    tasksEn,
    contactsEn,
    supportEn,
    broadcastsEn,
    automationsEn,
    automationsActionsEn,
    automationsInboundEn,
    automationsEngineEn,
    leadformsEn,
    subscriptionsEn,
    ordersEn,
    optinsEn,
    integrationsEn,
    googleEn,
    ownMailEn,
    registrationEn,
    zapierEn,
    analyticsEn,
    alertsEn,
  ],
  es: [
    es,
    agenciesEs,
    businessesEs,
    usersEs,
    credentialsEs,
    fieldsEs,
    installsEs,
    inboxEs,
    callsEs,
    numbersEs,
    sandboxEs,
    messagesEs,
    tasksEs,
    contactsEs,
    supportEs,
    broadcastsEs,
    automationsEs,
    automationsActionsEs,
    automationsInboundEs,
    automationsEngineEs,
    leadformsEs,
    subscriptionsEs,
    ordersEs,
    optinsEs,
    integrationsEs,
    googleEs,
    ownMailEs,
    registrationEs,
    zapierEs,
    analyticsEs,
    alertsEs,
  ],
  br: [
    br,
    agenciesBr,
    businessesBr,
    usersBr,
    credentialsBr,
    fieldsBr,
    installsBr,
    inboxBr,
    callsBr,
    numbersBr,
    sandboxBr,
    messagesBr,
    tasksBr,
    contactsBr,
    supportBr,
    broadcastsBr,
    automationsBr,
    automationsActionsBr,
    automationsInboundBr,
    automationsEngineBr,
    leadformsBr,
    subscriptionsBr,
    ordersBr,
    optinsBr,
    integrationsBr,
    googleBr,
    ownMailBr,
    registrationBr,
    zapierBr,
    analyticsBr,
    alertsBr,
  ],
};

const catalogues: Record<TLanguage, Catalogue> = {
  en: SERVER_CATALOGUES.en.reduce(merge, {}),
  es: SERVER_CATALOGUES.es.reduce(merge, {}),
  br: SERVER_CATALOGUES.br.reduce(merge, {}),
};

/** The merged message tree of a language (the light sign-in page takes its texts from it). */
export function serverMessages(lang: TLanguage): Catalogue {
  return catalogues[lang];
}

function lookup(cat: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = cat;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function lookupIn(lang: TLanguage, key: string): string | undefined {
  return lookup(catalogues[lang], key) ?? lookup(catalogues.en, key);
}

/**
 * Translates a message key with `{name}` placeholders, falling back to en and then to the key itself,
 * so that a message that is not a key (a literal text) passes through unchanged. A numeric `count`
 * picks the plural key as i18next does (`key_one` / `key_other`), so that both read the same files.
 */
export function translate(
  key: string,
  lang: TLanguage = DEFAULT_LANGUAGE,
  params: Record<string, string | number> = {},
): string {
  const plural =
    typeof params.count === 'number'
      ? lookupIn(lang, `${key}_${pluralCategory(lang, params.count)}`)
      : undefined;
  const text = plural ?? lookupIn(lang, key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function hasKey(key: string): boolean {
  return lookup(catalogues.en, key) !== undefined;
}

/**
 * A field's name in `lang`, as messages show it: `fields.<key>` from the locale files, else the key made
 * readable ('first_name' -> 'first name').
 */
export function fieldName(path: readonly PropertyKey[], lang: TLanguage = DEFAULT_LANGUAGE): string {
  const key = fieldKey(path);
  return (key !== undefined ? lookup(catalogues[lang], `fields.${key}`) : undefined) ?? fieldLabel(path);
}

/**
 * A validation message (a key with params, see zod.ts) for the field at `path`, in `lang`, the field
 * named from the locale files. A `name` in `extra` (the thrower's own params) is used as given.
 */
export function fieldMessage(
  message: string,
  path: readonly PropertyKey[],
  lang: TLanguage = DEFAULT_LANGUAGE,
  extra: Record<string, string | number> = {},
): string {
  return issueMessageWith(message, path, (key, params) => translate(key, lang, { ...params, ...extra }));
}
