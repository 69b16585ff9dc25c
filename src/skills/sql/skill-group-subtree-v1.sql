-- The ids of a skill group and of every group below it, each once (a polyhierarchy reaches a group by several
-- paths); empty when the organisation has no such group. GET /skills?groupId= and a group's skillCount (issue 46):
-- as a function its plan is kept per session.
CREATE FUNCTION skill_group_subtree_v1(organisation uuid, root uuid) RETURNS uuid[]
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN ARRAY(
    WITH RECURSIVE subtree (id) AS (
      SELECT g.id FROM skill_groups g WHERE g.id = root AND g.organisation_id = organisation
      UNION
      SELECT l.group_id FROM skill_group_parents l JOIN subtree ON l.parent_id = subtree.id
       WHERE l.organisation_id = organisation
    )
    SELECT id FROM subtree
  );
END $$;
