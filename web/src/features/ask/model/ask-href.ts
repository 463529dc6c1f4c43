/** The answer page of a question, within a topic when given: `/ask?q=…&topic=…`. */
export function askHref(question: string, topicId?: string): string {
  const params = new URLSearchParams({ q: question });
  if (topicId) params.set('topic', topicId);
  return `/ask?${params.toString()}`;
}
