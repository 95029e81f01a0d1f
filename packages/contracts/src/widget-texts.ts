// The widget's texts and the messages of its checks, without zod, so the website widget (apps/widget)
// can import them without the schemas (@stn/contracts/widget re-exports them).

/** The texts of the issues these schemas raise, in the widget's languages (the spec's en text first). */
export const WIDGET_MESSAGES = {
  en: {
    'validation.phone': 'Wrong phone number format!!',
    'validation.required': 'This field is required',
    'validation.email': 'Please enter a valid email address.',
    'validation.invalid': 'This value is invalid.',
  },
  es: {
    'validation.phone': '¡¡Formato de número de teléfono incorrecto!!',
    'validation.required': 'Este campo es obligatorio',
    'validation.email': 'Introduce un correo electrónico válido.',
    'validation.invalid': 'Este valor no es válido.',
  },
  br: {
    'validation.phone': 'Formato de número de telefone errado!!',
    'validation.required': 'Este campo é obrigatório',
    'validation.email': 'Informe um e-mail válido.',
    'validation.invalid': 'Este valor é inválido.',
  },
} as const;
export type TWidgetMessageKey = keyof (typeof WIDGET_MESSAGES)['en'];

/** The texts of the widget a business can change per language (`settings.texts[lang][key]`). */
export const WIDGET_TEXT_KEYS = [
  'title',
  'CallLabel',
  'MessageLabel',
  'LeadLabel',
  'ScheduleLabel',
  'NameLabel',
  'EmailLabel',
  'PhoneLabel',
  'MessageInputLabel',
  'SubmitCall',
  'SubmitText',
  'SubmitSchedule',
  'call',
  'sms',
  'lead',
  'exception',
  'success',
  'error',
  'closed',
  'gdpr',
  'promotion',
] as const;
export type TWidgetTextKey = (typeof WIDGET_TEXT_KEYS)[number];

/** The languages the widget speaks (spec 000 §3: languageList en, es; br as the app's third). */
export const WIDGET_LANGUAGES = ['en', 'es', 'br'] as const;
export type TWidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

/** A widget text missing from the install's `texts`: the built-in one of its language. */
export const WIDGET_TEXT_DEFAULTS: Record<TWidgetLanguage, Record<TWidgetTextKey, string>> = {
  en: {
    title: 'How can we help?',
    CallLabel: 'Call me back',
    MessageLabel: 'Text us',
    LeadLabel: 'Leave your details',
    ScheduleLabel: 'Schedule a call',
    NameLabel: 'Your name',
    EmailLabel: 'Your e-mail',
    PhoneLabel: 'Your phone number',
    MessageInputLabel: 'Your message',
    SubmitCall: 'Call me now',
    SubmitText: 'Send',
    SubmitSchedule: 'Schedule',
    call: 'We are calling you back within {seconds} seconds.',
    sms: 'Thanks! We got your message and will text you back shortly.',
    lead: 'Thanks! We will be in touch soon.',
    exception: 'Sorry, something went wrong. Please try again.',
    success: 'Done!',
    error: 'Please check the form.',
    closed: 'We are closed right now. Pick a time and we will call you.',
    gdpr: 'I agree that my details are stored to answer my request.',
    promotion: 'I would like to receive offers by text message.',
  },
  es: {
    title: '¿Cómo podemos ayudarte?',
    CallLabel: 'Llámame',
    MessageLabel: 'Escríbenos',
    LeadLabel: 'Deja tus datos',
    ScheduleLabel: 'Programar una llamada',
    NameLabel: 'Tu nombre',
    EmailLabel: 'Tu correo electrónico',
    PhoneLabel: 'Tu número de teléfono',
    MessageInputLabel: 'Tu mensaje',
    SubmitCall: 'Llámame ahora',
    SubmitText: 'Enviar',
    SubmitSchedule: 'Programar',
    call: 'Te devolvemos la llamada en {seconds} segundos.',
    sms: '¡Gracias! Recibimos tu mensaje y te responderemos por SMS en breve.',
    lead: '¡Gracias! Nos pondremos en contacto pronto.',
    exception: 'Lo sentimos, algo salió mal. Inténtalo de nuevo.',
    success: '¡Listo!',
    error: 'Revisa el formulario.',
    closed: 'Ahora estamos cerrados. Elige una hora y te llamaremos.',
    gdpr: 'Acepto que se guarden mis datos para responder a mi solicitud.',
    promotion: 'Quiero recibir ofertas por SMS.',
  },
  br: {
    title: 'Como podemos ajudar?',
    CallLabel: 'Me ligue',
    MessageLabel: 'Mande uma mensagem',
    LeadLabel: 'Deixe seus dados',
    ScheduleLabel: 'Agendar uma ligação',
    NameLabel: 'Seu nome',
    EmailLabel: 'Seu e-mail',
    PhoneLabel: 'Seu telefone',
    MessageInputLabel: 'Sua mensagem',
    SubmitCall: 'Me ligue agora',
    SubmitText: 'Enviar',
    SubmitSchedule: 'Agendar',
    call: 'Retornaremos sua ligação em {seconds} segundos.',
    sms: 'Obrigado! Recebemos sua mensagem e responderemos por SMS em breve.',
    lead: 'Obrigado! Entraremos em contato em breve.',
    exception: 'Desculpe, algo deu errado. Tente novamente.',
    success: 'Pronto!',
    error: 'Verifique o formulário.',
    closed: 'Estamos fechados agora. Escolha um horário e ligaremos para você.',
    gdpr: 'Concordo que meus dados sejam guardados para responder ao meu pedido.',
    promotion: 'Quero receber ofertas por SMS.',
  },
};

/**
 * The widget's own words around the business's texts (not per install): the close button, the language
 * picker, the call's progress, the schedule's hints and the reply box.
 */
export const WIDGET_UI_TEXTS: Record<TWidgetLanguage, Record<TWidgetUiKey, string>> = {
  en: {
    close: 'Close',
    language: 'Language',
    required: 'required',
    finding: 'Finding someone to take your call…',
    calling_you: 'Calling you now. Please answer your phone.',
    connected: 'You are connected.',
    completed: 'The call has ended. Thank you!',
    missed: 'Sorry, nobody could take the call. We will get back to you.',
    soon: 'Any moment now: we are still reaching someone for you.',
    codeHint: 'We texted a code to your phone. Enter it to see our replies here too.',
    codeNotSent: 'Our replies will reach your phone by text.',
    codeLabel: 'Code from the text',
    codeSubmit: 'Show replies',
    codeResend: 'Text me the code again',
    codeResent: 'We texted you the code again.',
    pickTime: 'Choose a time',
    timesIn: 'Times are shown in your time zone ({zone}).',
    noTimes: 'There are no times available in the next days.',
    scheduledFor: 'Your call is scheduled for {when}.',
    reply: 'Write a reply',
    you: 'You',
  },
  es: {
    close: 'Cerrar',
    language: 'Idioma',
    required: 'obligatorio',
    finding: 'Buscando a alguien que atienda tu llamada…',
    calling_you: 'Te estamos llamando. Contesta tu teléfono.',
    connected: 'Estás conectado.',
    completed: 'La llamada terminó. ¡Gracias!',
    missed: 'Lo sentimos, nadie pudo atender la llamada. Te contactaremos.',
    soon: 'En cualquier momento: seguimos buscando a alguien para ti.',
    codeHint: 'Te enviamos un código por SMS. Escríbelo para ver aquí también nuestras respuestas.',
    codeNotSent: 'Nuestras respuestas llegarán a tu teléfono por SMS.',
    codeLabel: 'Código del SMS',
    codeSubmit: 'Ver respuestas',
    codeResend: 'Enviarme el código otra vez',
    codeResent: 'Te enviamos el código otra vez.',
    pickTime: 'Elige una hora',
    timesIn: 'Las horas se muestran en tu zona horaria ({zone}).',
    noTimes: 'No hay horas disponibles en los próximos días.',
    scheduledFor: 'Tu llamada está programada para el {when}.',
    reply: 'Escribe una respuesta',
    you: 'Tú',
  },
  br: {
    close: 'Fechar',
    language: 'Idioma',
    required: 'obrigatório',
    finding: 'Procurando alguém para atender sua ligação…',
    calling_you: 'Estamos ligando para você. Atenda o telefone.',
    connected: 'Você está conectado.',
    completed: 'A ligação terminou. Obrigado!',
    missed: 'Desculpe, ninguém pôde atender a ligação. Entraremos em contato.',
    soon: 'A qualquer momento: ainda estamos procurando alguém para você.',
    codeHint: 'Enviamos um código por SMS. Digite-o para ver nossas respostas aqui também.',
    codeNotSent: 'Nossas respostas chegarão ao seu telefone por SMS.',
    codeLabel: 'Código do SMS',
    codeSubmit: 'Ver respostas',
    codeResend: 'Enviar o código de novo',
    codeResent: 'Enviamos o código de novo.',
    pickTime: 'Escolha um horário',
    timesIn: 'Os horários estão no seu fuso horário ({zone}).',
    noTimes: 'Não há horários disponíveis nos próximos dias.',
    scheduledFor: 'Sua ligação está agendada para {when}.',
    reply: 'Escreva uma resposta',
    you: 'Você',
  },
};
export type TWidgetUiKey =
  | 'close'
  | 'language'
  | 'required'
  | 'finding'
  | 'calling_you'
  | 'connected'
  | 'completed'
  | 'missed'
  | 'soon'
  | 'codeHint'
  | 'codeNotSent'
  | 'codeLabel'
  | 'codeSubmit'
  | 'codeResend'
  | 'codeResent'
  | 'pickTime'
  | 'timesIn'
  | 'noTimes'
  | 'scheduledFor'
  | 'reply'
  | 'you';

/**
 * The name check an install can switch on (`input.IsEnableNameValidation`): at least two letters and no
 * digits. The widget checks it as the visitor types; the server checks it again.
 */
export function validWidgetName(name: string): boolean {
  const letters = name.match(/\p{L}/gu);
  return !/\d/.test(name) && !!letters && letters.length >= 2;
}
