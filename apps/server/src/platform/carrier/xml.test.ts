import { describe, expect, it } from 'vitest';
import { elementsOf, parseXml, textOf, XmlError } from './sandbox/xml.ts';

describe('the sandbox XML parser', () => {
  it('reads TwiML with a declaration, comments, CDATA, entities and both quote styles', () => {
    const root = parseXml(`<?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment -->
      <Response>
        <Say voice='alice' language="en-US">Tom &amp; Jerry &lt;3 &#65;&#x42;</Say>
        <Gather action="/g?a=1&amp;b=2" numDigits = "1"><Say><![CDATA[<press> 1]]></Say></Gather>
        <Hangup/>
      </Response>`);
    expect(root.name).toBe('Response');
    const [say, gather, hangup] = elementsOf(root);
    expect(say?.attrs).toEqual({ voice: 'alice', language: 'en-US' });
    expect(say && textOf(say)).toBe('Tom & Jerry <3 AB');
    expect(gather?.attrs).toEqual({ action: '/g?a=1&b=2', numDigits: '1' });
    expect(gather && textOf(gather)).toBe('<press> 1');
    expect(hangup).toEqual({ name: 'Hangup', attrs: {}, children: [] });
  });

  it('refuses malformed documents', () => {
    for (const bad of [
      '',
      'hello',
      '<Response>',
      '<Response></Respons>',
      '<Response><Say>x</Response>',
      '<Response a=1/>',
      '<Response>&nbsp;</Response>',
      '<Response/><Response/>',
      '<!DOCTYPE x><Response/>',
    ]) {
      expect(() => parseXml(bad), bad).toThrow(XmlError);
    }
  });
});
