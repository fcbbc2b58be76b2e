-- Issue 39: the patient record's version (FHIR meta.versionId, ETag, If-Match), bumped by every change.
ALTER TABLE "patients" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;
