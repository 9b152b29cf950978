// Which failed uploads a retry could help: not one whose name the service refuses (the spec's forbidden characters),
// which fails the same way every time. Free of `vscode` so unit tests read it.
import { FORBIDDEN_FILENAME_CHARACTERS } from '../../api/uploads';

export function canNeverUpload(fileName: string): boolean {
  return fileName.trim() === '' || FORBIDDEN_FILENAME_CHARACTERS.some((c) => fileName.includes(c));
}

/** The failures worth a Retry button: those a second try might get through. */
export function retryable<T extends { file: string }>(failed: readonly T[]): T[] {
  return failed.filter((f) => !canNeverUpload(f.file));
}
