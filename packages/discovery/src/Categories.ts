/**
 * The catalogue's categories: the mirrored platform's primary categories (its `/discovery/categories`
 * list as Spacebar copied it), with slugs for ids since the spec types a category id as a string.
 * A seed, not a contract: the platform's own list drifts.
 */
export interface Category {
  readonly id: string
  readonly name: string
}

export const all: ReadonlyArray<Category> = [
  { id: "general", name: "General" },
  { id: "gaming", name: "Gaming" },
  { id: "music", name: "Music" },
  { id: "entertainment", name: "Entertainment" },
  { id: "creative-arts", name: "Creative Arts" },
  { id: "science-tech", name: "Science & Tech" },
  { id: "education", name: "Education" },
  { id: "sports", name: "Sports" },
  { id: "fashion-beauty", name: "Fashion & Beauty" },
  { id: "relationships-identity", name: "Relationships & Identity" },
  { id: "travel-food", name: "Travel & Food" },
  { id: "fitness-health", name: "Fitness & Health" },
  { id: "finance", name: "Finance" },
  { id: "general-chatting", name: "General Chatting" },
  { id: "bots", name: "Bots" },
  { id: "other", name: "Other" }
]

export const ids: ReadonlyArray<string> = all.map((category) => category.id)

/** The category with this id; unknown ids (a category retired since) show as "Other". */
export const byId = (id: string): Category =>
  all.find((category) => category.id === id) ?? { id: "other", name: "Other" }
