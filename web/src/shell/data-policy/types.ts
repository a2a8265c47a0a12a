/** The data policy of SPEC §1: a long text per language, dated, in sections. */
export interface DataPolicySection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

export interface DataPolicyText {
  readonly title: string;
  /** SPEC §1: the policy is dated 29.05.2018 (shown in the language's date format). */
  readonly dated: string;
  readonly sections: readonly DataPolicySection[];
}
