-- The number of skills linked to any of these groups, each once: the total of GET /skills?groupId= and a group's
-- skillCount (issue 46), where a top group's subtree holds ~200 groups and half the skills. Planned with the ids
-- bound as constants, the count weighed each id and scanned every link of the organisation; this generic plan,
-- kept per session, reads the links' group index (a bitmap scan) whatever the number of ids.
CREATE FUNCTION skill_group_skill_count_v1(organisation uuid, groups uuid[]) RETURNS integer
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN (
    SELECT count(DISTINCT l.skill_id) FROM skill_group_skills l
     WHERE l.group_id = ANY (groups) AND l.organisation_id = organisation
  );
END $$;
