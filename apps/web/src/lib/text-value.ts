/**
 * The `value` and `onChange` of a text input or textarea kept in a React state:
 * `<TextInput {...textValue(name, setName)} />`.
 */
export function textValue(value: string, set: (value: string) => void) {
  return { value, onChange: (e: { currentTarget: { value: string } }) => set(e.currentTarget.value) };
}
