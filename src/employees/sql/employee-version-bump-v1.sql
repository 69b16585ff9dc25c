-- The version of an employee (issue 47): +1 in the statement that changes the row, whatever writes it (a PATCH, a
-- bulk item, a deactivation, an instance of the release before during a rolling update). A BEFORE trigger rather
-- than a SET in each UPDATE, so no writer can leave it out; the trigger's WHEN skips an UPDATE that changes
-- nothing, and the writers' own no-op rule already leaves such rows out, so a no-op PATCH bumps nothing.
CREATE FUNCTION employee_version_bump_v1()
  RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;
