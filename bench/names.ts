/** Vocabulary of the seeded data; the runner draws its search terms from the same lists. */
export const FIRST_NAMES = [
  'Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hannah', 'Isabel', 'Jonas', 'Karl', 'Laura',
  'Maria', 'Noah', 'Olivia', 'Paul', 'Quentin', 'Rosa', 'Sophie', 'Tobias', 'Ursula', 'Victor', 'Wanda',
  'Xavier', 'Yusuf', 'Zoe', 'Amelie', 'Bruno', 'Charlotte', 'Dominik', 'Elena', 'Finn', 'Gabriel', 'Helena',
  'Ida', 'Jakob', 'Katharina', 'Leon', 'Mia', 'Nils', 'Oskar', 'Pia', 'Rafael', 'Sara', 'Theo', 'Valentina',
  'William', 'Yara', 'Aaron', 'Bianca', 'Carlos', 'Daniela', 'Erik', 'Fatima', 'Georg', 'Hugo', 'Ines',
  'Julian', 'Klara', 'Lukas', 'Marta', 'Nina', 'Omar', 'Petra', 'Ruben', 'Simon', 'Tanja', 'Uwe', 'Vera',
  'Walter', 'Amir', 'Lena', 'Martin', 'Mark', 'Miriam', 'Sebastian', 'Johanna', 'Matthias', 'Alexander',
  'Christina', 'Stefan', 'Andrea', 'Thomas', 'Julia', 'Michael', 'Sabine', 'Peter', 'Monika', 'Frank', 'Susanne',
];

export const LAST_NAMES = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Koch', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Braun', 'Hofmann', 'Zimmermann',
  'Schmitt', 'Hartmann', 'Krüger', 'Schmid', 'Werner', 'Lange', 'Schmitz', 'Meier', 'Krause', 'Maier',
  'Lehmann', 'Huber', 'Mayer', 'Herrmann', 'Köhler', 'Walter', 'König', 'Schulze', 'Fuchs', 'Kaiser',
  'Lang', 'Weiß', 'Peters', 'Scholz', 'Jung', 'Möller', 'Hahn', 'Keller', 'Vogel', 'Schubert', 'Roth',
  'Frank', 'Friedrich', 'Beck', 'Günther', 'Berger', 'Winkler', 'Lorenz', 'Baumann', 'Schuster', 'Kraus',
  'Böhm', 'Simon', 'Franke', 'Albrecht', 'Winter', 'Ludwig', 'Martin', 'Kühn', 'Schumacher', 'Vogt',
  'Jäger', 'Otto', 'Sommer', 'Groß', 'Seidel', 'Heinrich', 'Brandt', 'Haas', 'Schreiber', 'Graf',
  'Dietrich', 'Ziegler', 'Kuhn', 'Pohl', 'Engel', 'Horn', 'Busch', 'Bergmann', 'Thomas', 'Voigt', 'Sauer',
  'Arnold', 'Wolff', 'Pfeiffer', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller',
  'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Taylor',
  'Moore', 'Jackson', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis',
  'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
];

export const TITLES = [
  'Software Engineer', 'Senior Software Engineer', 'Engineering Manager', 'Product Manager', 'Designer',
  'Data Analyst', 'Data Scientist', 'HR Business Partner', 'Recruiter', 'Sales Manager', 'Account Executive',
  'Controller', 'Accountant', 'Support Specialist', 'Operations Manager', 'QA Engineer', 'DevOps Engineer',
  'Team Lead', 'Architect', 'Consultant',
];

export const SKILL_TOPICS = [
  'TypeScript', 'Java', 'Python', 'Go', 'Rust', 'SQL', 'PostgreSQL', 'Kubernetes', 'Docker', 'AWS', 'Azure',
  'Negotiation', 'Public Speaking', 'Leadership', 'Coaching', 'Accounting', 'Excel', 'Recruiting', 'Figma',
  'UX Research', 'Data Modelling', 'Machine Learning', 'Statistics', 'Security', 'Networking', 'Linux',
  'React', 'Angular', 'Project Management', 'Customer Support',
];

export const SKILL_LEVELS = [
  'Fundamentals', 'Practitioner', 'Advanced', 'Expert', 'Architecture', 'Testing', 'Operations', 'Tooling',
  'Mentoring', 'Strategy',
];
