-- The words of the patients' names, per hospital (issue 16): the dictionary in which the name search's last tier
-- looks up a word it found nowhere as a name's start (two typos and more, or a word in the middle of a name). It
-- used to compare the term with every name of the hospital through the trigram index: at 1,000,000 patients a
-- term close to no name rechecked some 30,000 candidates (0.6 s) to find nobody. The dictionary holds a few
-- thousand words where the patients are a million; its nearest words are read from a GiST index in order of
-- trigram distance. Words are added by the patients' trigger and never removed: a word nobody bears any more
-- only leads the search to look for it and find nobody.
CREATE OR REPLACE FUNCTION greensen_name_words(last_name text, first_name text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(f_unaccent(lower(coalesce(last_name, '') || ' ' || coalesce(first_name, ''))), '[[:space:]''’-]+') w
  WHERE length(w) >= 2
$$;
--> statement-breakpoint
CREATE TABLE "patient_name_words" (
  "hospital_id" uuid NOT NULL REFERENCES "hospitals"("id") ON DELETE CASCADE,
  "word" text NOT NULL,
  PRIMARY KEY ("hospital_id", "word")
);
--> statement-breakpoint
CREATE INDEX "patient_name_words_trgm_idx" ON "patient_name_words" USING gist ("hospital_id", "word" gist_trgm_ops);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION greensen_patient_name_words() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patient_name_words (hospital_id, word)
    SELECT NEW.hospital_id, w FROM greensen_name_words(NEW.last_name, NEW.first_name) w
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER patients_name_words AFTER INSERT OR UPDATE OF last_name, first_name, hospital_id ON patients
  FOR EACH ROW EXECUTE FUNCTION greensen_patient_name_words();
--> statement-breakpoint
INSERT INTO patient_name_words (hospital_id, word)
  SELECT DISTINCT p.hospital_id, w FROM patients p, greensen_name_words(p.last_name, p.first_name) w
  ON CONFLICT DO NOTHING;
