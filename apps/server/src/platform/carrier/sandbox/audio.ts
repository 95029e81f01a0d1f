/**
 * Real audio for sandbox recordings: a short PCM WAV (8 kHz, 16-bit, like Twilio's call recordings),
 * a soft tone and silence, one or two channels, whose length follows the recording's duration (at
 * least one second, at most three: enough for an <audio> element to play, small enough to keep).
 */
export function recordingWav(durationSeconds: number, channels: 1 | 2 = 1, seed = 0): Buffer {
  const rate = 8000;
  const seconds = Math.min(3, Math.max(1, Math.round(durationSeconds) || 1));
  const frames = rate * seconds;
  const bytesPerSample = 2;
  const dataSize = frames * channels * bytesPerSample;
  const buf = Buffer.alloc(44 + dataSize);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataSize, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // PCM header size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * channels * bytesPerSample, 28);
  buf.writeUInt16LE(channels * bytesPerSample, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataSize, 40);
  const freq = [440, 523, 587, 659][seed % 4] ?? 440;
  for (let f = 0; f < frames; f++) {
    const t = f / rate;
    // Half a second of tone, a quarter of silence, repeated; a fade at each edge avoids clicks.
    const phase = t % 0.75;
    const on = phase < 0.5;
    const edge = Math.min(1, phase / 0.02, (0.5 - phase) / 0.02);
    const v = on ? Math.round(Math.sin(2 * Math.PI * freq * t) * 6000 * Math.max(0, edge)) : 0;
    for (let c = 0; c < channels; c++) {
      buf.writeInt16LE(c === 1 ? Math.round(v / 2) : v, 44 + (f * channels + c) * bytesPerSample);
    }
  }
  return buf;
}
