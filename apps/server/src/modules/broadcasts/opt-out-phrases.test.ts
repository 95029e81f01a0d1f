import { describe, expect, it } from 'vitest';
import { asksToStop } from './opt-out-phrases.ts';

describe('asksToStop', () => {
  it('finds a request to stop in words, in English, Spanish and Portuguese', () => {
    for (const text of [
      'Please remove me from this list',
      'stop texting me!!',
      'Unsubscribe me',
      'no more texts please',
      "Don't text me again",
      'Take me off your list',
      'STOP please',
      'leave me alone',
      'Por favor no me escriban más',
      'Quiero darme de baja',
      'Dejen de enviarme mensajes',
      'No quiero recibir más mensajes',
      'Quítenme de la lista',
      'Parem de me mandar mensagens',
      'Me tire da lista por favor',
      'Quero me descadastrar',
      'Não quero mais receber mensagens',
      'Não me mandem mais nada',
    ])
      expect(asksToStop(text), text).toBe(true);
  });

  it('leaves bare keywords (handled when they came in) and ordinary replies alone', () => {
    for (const text of [
      'STOP',
      'stop',
      ' Unsubscribe ',
      'START',
      'HELP',
      'Yes, I want the spring sale!',
      'What time do you open tomorrow?',
      "Can't wait, don't stop the deals",
      'Remember me for the next sale',
      'Gracias, ¿a qué hora abren?',
      'Obrigado, quero saber mais',
      '',
    ])
      expect(asksToStop(text), text).toBe(false);
  });
});
