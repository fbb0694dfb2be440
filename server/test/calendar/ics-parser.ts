/**
 * A strict reader of iCalendar text (RFC 5545), independent of the server's writer, for the
 * calendar feed's tests: it refuses a line end other than CRLF, a physical line over 75 octets or
 * not whole UTF-8, a TEXT value with an unescaped `,` or `;` or an unknown escape, and unbalanced
 * BEGIN/END; it unfolds lines and unescapes TEXT.
 */
export interface Property {
  name: string;
  params: Record<string, string>;
  /** As written (escaped). */
  raw: string;
}

export interface Component {
  name: string;
  properties: Property[];
  components: Component[];
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The physical lines, each checked: CRLF only, at most 75 octets, whole UTF-8 characters. */
export function physicalLines(body: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === 0x0a) throw new Error(`a bare LF at octet ${i}`);
    if (byte !== 0x0d) continue;
    if (body[i + 1] !== 0x0a) throw new Error(`a bare CR at octet ${i}`);
    const line = body.subarray(start, i);
    if (line.length > 75) throw new Error(`a line of ${line.length} octets: ${line.toString('utf8')}`);
    lines.push(decoder.decode(line)); // throws on a character split across lines
    start = i + 2;
    i += 1;
  }
  if (start !== body.length) throw new Error('the text does not end with CRLF');
  return lines;
}

export function unfold(lines: string[]): string[] {
  const logical: string[] = [];
  for (const line of lines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (logical.length === 0) throw new Error('a continuation line first');
      logical[logical.length - 1] += line.slice(1);
    } else {
      logical.push(line);
    }
  }
  return logical;
}

function parseProperty(line: string): Property {
  let colon = -1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon < 1) throw new Error(`not a content line: ${line}`);
  const [name, ...paramTexts] = line.slice(0, colon).split(';');
  if (!/^[A-Za-z0-9-]+$/.test(name!)) throw new Error(`a bad property name: ${name}`);
  const params: Record<string, string> = {};
  for (const text of paramTexts) {
    const eq = text.indexOf('=');
    if (eq < 1) throw new Error(`a bad parameter: ${text}`);
    params[text.slice(0, eq).toUpperCase()] = text.slice(eq + 1);
  }
  return { name: name!.toUpperCase(), params, raw: line.slice(colon + 1) };
}

/** A TEXT value (one, not a list): `\\`, `\;`, `\,`, `\n`/`\N` are the only escapes; `,` and `;` must be escaped. */
export function unescapeText(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === ',' || char === ';') throw new Error(`an unescaped "${char}" in ${raw}`);
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = raw[i + 1];
    i += 1;
    if (next === '\\' || next === ';' || next === ',') out += next;
    else if (next === 'n' || next === 'N') out += '\n';
    else throw new Error(`an unknown escape \\${next ?? ''} in ${raw}`);
  }
  return out;
}

export function parseCalendar(body: Buffer): Component {
  const stack: Component[] = [];
  let root: Component | null = null;
  for (const line of unfold(physicalLines(body))) {
    const property = parseProperty(line);
    if (property.name === 'BEGIN') {
      const component: Component = { name: property.raw, properties: [], components: [] };
      if (stack.length > 0) stack[stack.length - 1]!.components.push(component);
      else if (root) throw new Error('a second top-level component');
      else root = component;
      stack.push(component);
    } else if (property.name === 'END') {
      const open = stack.pop();
      if (!open || open.name !== property.raw) throw new Error(`END:${property.raw} closes ${open?.name ?? 'nothing'}`);
    } else {
      const open = stack[stack.length - 1];
      if (!open) throw new Error(`a property outside any component: ${line}`);
      open.properties.push(property);
    }
  }
  if (!root || stack.length > 0) throw new Error('unbalanced BEGIN/END');
  return root;
}

/** The one property of that name (throws when absent or repeated). */
export function one(component: Component, name: string): Property {
  const found = component.properties.filter((p) => p.name === name);
  if (found.length !== 1) throw new Error(`${component.name} has ${found.length} ${name}`);
  return found[0]!;
}

export const text = (component: Component, name: string) => unescapeText(one(component, name).raw);
