export function openEditor() {}
