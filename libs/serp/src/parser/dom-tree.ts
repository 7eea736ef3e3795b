import type { AnyNode, Element, ParentNode } from 'domhandler';

/** Small, allocation-free walks over the parsed tree, for the loops that run per link. */

export function isElement(node: AnyNode | ParentNode | null): node is Element {
  return node !== null && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

/** The element's ancestors, nearest first, up to (not including) the document. */
export function* ancestorsOf(element: Element): Generator<Element> {
  let parent = element.parent;
  while (isElement(parent)) {
    yield parent;
    parent = parent.parent;
  }
}

/** True when one of the element's ancestors (not the element itself) is in `containers`. */
export function hasAncestorIn(element: Element, containers: ReadonlySet<Element>): boolean {
  for (const ancestor of ancestorsOf(element)) if (containers.has(ancestor)) return true;
  return false;
}

/** True when `descendant` is `ancestor` or lies inside it. */
export function isSameOrInside(descendant: Element, ancestor: Element): boolean {
  if (descendant === ancestor) return true;
  for (const node of ancestorsOf(descendant)) if (node === ancestor) return true;
  return false;
}
