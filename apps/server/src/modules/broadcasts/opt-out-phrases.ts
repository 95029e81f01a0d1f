import { HELP_KEYWORDS, START_KEYWORDS, STOP_KEYWORDS } from '@stn/contracts/chats';

// Replies that ask to stop in words other than the carrier keywords (ADR 062): "please remove me", "stop
// texting me", "no more texts", in English, Spanish and Portuguese. A reply that is only a keyword (STOP,
// START, HELP...) is the carrier rules' business and already handled when it came in, so it is not one.

const KEYWORDS = new Set([...STOP_KEYWORDS, ...START_KEYWORDS, ...HELP_KEYWORDS].map((k) => k.toLowerCase()));

/** Lower case, accents and punctuation gone, apostrophes dropped ("don't" → "dont"), spaces collapsed. */
export function normaliseReply(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const PHRASES: RegExp[] = [
  // English
  /\b(remove|take|delete|drop|erase) (me|my (number|phone|contact|info))\b/,
  /\btake me off\b/,
  /\b(unsubscribe|unsub|opt) ?(me|out)\b/,
  /\bstop (texting|messaging|sending|contacting|spamming|txting|writing|bothering)\b/,
  /\b(please|pls|plz) stop\b|\bstop (please|pls|plz|it|now|this)\b/,
  /\b(no|dont want|do not want|dont send|do not send)( any)? more (texts?|messages?|sms|msgs?)\b/,
  /\b(dont|do not|never) (text|message|contact|sms|txt|call) (me|this number)\b/,
  /\bleave me alone\b/,
  /\blose my number\b/,
  /\bnot interested (stop|remove)\b/,
  // Spanish
  /\bno me (escriban|escribas|manden|mandes|envien|envies|contacten|molesten)\b/,
  /\b(dejen|deja|dejar) de (escribirme|enviarme|mandarme|molestarme|contactarme)\b/,
  /\b(dar|darme|denme|dame|de) de baja\b/,
  /\b(quitar|quitarme|quitenme|quiteme|sacar|sacarme|saquenme|borrar|borrarme|borrenme|eliminar|eliminarme) (de|del|mi)\b/,
  /\bno (quiero|deseo) (recibir )?mas (mensajes|textos|sms)\b/,
  /\bno mas (mensajes|textos|sms)\b/,
  /\b(ya no|no) quiero (recibir )?(mensajes|textos|sms)\b/,
  // Portuguese
  /\b(pare|parem|parar) de (enviar|mandar|me mandar|me enviar|escrever|me escrever)\b/,
  /\b(me )?(tire|tirem|tira|remova|removam|remove|exclua|excluam) (meu numero|da lista|me|desta lista)\b/,
  /\bdescadastr/,
  /\b(nao|nunca) (quero|desejo) (mais )?(receber )?(mais )?(mensagens|sms|textos)\b/,
  /\b(chega|basta) de (mensagens|sms|textos)\b/,
  /\bnao me (mande|mandem|envie|enviem|escreva|escrevam) mais\b/,
  /\bsair da lista\b/,
];

/** True when the reply asks to stop receiving texts in its own words (a bare keyword is not counted). */
export function asksToStop(text: string): boolean {
  const plain = normaliseReply(text);
  if (!plain || KEYWORDS.has(plain)) return false;
  return PHRASES.some((p) => p.test(plain));
}
